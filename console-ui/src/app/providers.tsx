import { useState, type ReactNode } from 'react'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { Toaster } from 'sonner'
import { createQueryClient } from './query_client'
import { ConfirmProvider } from '../components/ui/confirm'
import { useTheme } from './theme'

interface ProvidersProps {
  children: ReactNode
  /** Injected by tests; the app creates one client for its lifetime. */
  client?: QueryClient
}

/** Every app-wide context provider, in one place. */
export function Providers({ children, client }: ProvidersProps) {
  const [defaultClient] = useState(createQueryClient)
  const [theme] = useTheme()
  return (
    <QueryClientProvider client={client ?? defaultClient}>
      <ConfirmProvider>{children}</ConfirmProvider>
      <Toaster theme={theme} position="bottom-right" richColors closeButton />
    </QueryClientProvider>
  )
}
