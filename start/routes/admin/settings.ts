/*
 * Admin API routes: settings (registered inside the /admin/api group of start/routes/admin.ts).
 */
export function registerSettingsRoutes() {}
