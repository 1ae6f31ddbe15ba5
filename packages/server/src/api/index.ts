export { type App, type AppDeps, buildApp, DEFAULT_BODY_LIMIT } from "./app.ts";
export { noStore } from "./cache.ts";
export {
  ApiError,
  type ApiErrorCode,
  type ErrorBody,
  HTTP_ERROR_STATUS,
  statusOfApiError,
} from "./errors.ts";
export { isPublicPath, PUBLIC_PREFIXES } from "./plugins/cors.ts";
