/*
 * Admin API routes: security (registered inside the /admin/api group of start/routes/admin.ts).
 */
export function registerSecurityRoutes() {}
