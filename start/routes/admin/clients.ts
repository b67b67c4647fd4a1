/*
 * Admin API routes: clients (registered inside the /admin/api group of start/routes/admin.ts).
 */
export function registerClientsRoutes() {}
