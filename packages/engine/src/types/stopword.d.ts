/** The `stopword` package ships no types: its default export maps language codes to word lists. */
declare module 'stopword' {
  const lists: Record<string, string[] | ((...args: never[]) => unknown)>;
  export default lists;
}
