// The dashboard's files are imported as text (`with { type: "text" }`) and so embedded in a compiled binary.
declare module "*.css" {
  const text: string;
  export default text;
}
