// The HTTP layer's view of the service errors (defined in ../errors.ts).
export * from "../errors.ts";
