/** The `/v1` surface's access rules: the scopes a key may hold, the bearer token of a request, and a scope check. */
export { bearerToken, requireScope, SCOPES } from "../services/ingestion/tenants.js";
