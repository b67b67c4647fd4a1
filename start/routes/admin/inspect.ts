/*
 * Admin API routes: inspect (registered inside the /admin/api group of start/routes/admin.ts).
 */
export function registerInspectRoutes() {}
