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
