import type { ReactNode } from 'react'

interface PanelProps {
  title: string
  children: ReactNode
  testId?: string
}

/** A titled card; the basic building block of console pages. */
export function Panel({ title, children, testId }: PanelProps) {
  return (
    <section className="panel" data-testid={testId}>
      <h2 className="panel__title">{title}</h2>
      <div className="panel__body">{children}</div>
    </section>
  )
}
