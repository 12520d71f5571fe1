export * from "./accounts";
export * from "./users";
export * from "./system";
export * from "./notes";
export * from "./memory";
export * from "./sharing";
export * from "./recall-log";
