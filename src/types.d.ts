declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.svg" {
  const path: string;
  export default path;
}
declare module "*.so" {
  const path: string;
  export default path;
}
declare module "*.png" {
  const path: string;
  export default path;
}
/** turndown's DOM parser (its own types declare the module under its old name, "domino"). */
declare module "@mixmark-io/domino" {
  export function createDocument(html?: string, force?: boolean): Document;
}
