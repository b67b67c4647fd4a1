/*
 * Admin API routes: model (registered inside the /admin/api group of start/routes/admin.ts).
 */
export function registerModelRoutes() {}
