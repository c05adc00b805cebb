/** hpack.js ships no types; h2/hpack.ts uses its decoder and table factories, the tests its decompressor. */
declare module "hpack.js" {
  const hpack: {
    decoder: { create(): unknown };
    table: { create(o: { maxSize: number }): unknown };
    decompressor: {
      create(o: { table: { size: number } }): { write(b: Buffer): void; execute(): void; read(): { name: string; value: string } | null };
    };
  };
  export default hpack;
}
