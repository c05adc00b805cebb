/** The QuickJS wasm binary imported `with { type: "file" }`: Bun hands back its path (embedded in a compiled binary). */
declare module "@jitl/quickjs-wasmfile-release-sync/wasm" {
  const path: string;
  export default path;
}
