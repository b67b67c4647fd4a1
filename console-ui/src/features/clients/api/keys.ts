/** Query keys of the OAuth clients area (under 'admin': every admin change invalidates them). */
export const clientsKeys = {
  all: ['admin', 'clients'] as const,
  list: () => [...clientsKeys.all, 'list'] as const,
  client: (clientId: string) => [...clientsKeys.all, 'client', clientId] as const,
}
