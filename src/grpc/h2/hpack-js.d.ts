/** hpack.js ships no types; the tests use its decompressor (the server requires only its Huffman tree and static table, untyped). */
declare module "hpack.js" {
  const hpack: {
    decompressor: {
      create(o: { table: { size: number } }): { write(b: Buffer): void; execute(): void; read(): { name: string; value: string } | null };
    };
  };
  export default hpack;
}
