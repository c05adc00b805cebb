// The page's scripts are browser modules the server imports as text and serves under /ui/.
declare const text: string;
export default text;
