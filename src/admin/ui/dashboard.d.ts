// dashboard.js is browser code that the server imports as text and serves at /ui/dashboard.js.
declare const text: string;
export default text;
