/*
 * Admin API routes: accounts (registered inside the /admin/api group of start/routes/admin.ts).
 */
export function registerAccountsRoutes() {}
