/** hpack.js ships no types; h2/hpack.ts uses its decoder and table factories only. */
declare module "hpack.js" {
  const hpack: {
    decoder: { create(): unknown };
    table: { create(o: { maxSize: number }): unknown };
  };
  export default hpack;
}
