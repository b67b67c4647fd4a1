import { Providers } from './providers'
import { Shell } from './shell'

export function App() {
  return (
    <Providers>
      <Shell />
    </Providers>
  )
}
