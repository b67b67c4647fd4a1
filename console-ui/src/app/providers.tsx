import { useState, type ReactNode } from 'react'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { createQueryClient } from './query_client'

interface ProvidersProps {
  children: ReactNode
  /** Injected by tests; the app creates one client for its lifetime. */
  client?: QueryClient
}

/** Every app-wide context provider, in one place (auth will join here later). */
export function Providers({ children, client }: ProvidersProps) {
  const [defaultClient] = useState(createQueryClient)
  return <QueryClientProvider client={client ?? defaultClient}>{children}</QueryClientProvider>
}
