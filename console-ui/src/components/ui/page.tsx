import { useEffect, type ReactNode } from 'react'

interface PageProps {
  title: string
  /** Short sentence under the title: what this page is for. */
  description?: ReactNode
  /** Buttons on the right of the title. */
  actions?: ReactNode
  children: ReactNode
  testId?: string
}

/** A console page: title (also the document title), description, actions, content. */
export function Page({ title, description, actions, children, testId }: PageProps) {
  useEffect(() => {
    document.title = `${title} · Modelgate Console`
  }, [title])
  return (
    <section className="page" data-testid={testId}>
      <header className="page__header">
        <div>
          <h1 className="page__title">{title}</h1>
          {description && <p className="page__description">{description}</p>}
        </div>
        {actions && <div className="page__actions">{actions}</div>}
      </header>
      {children}
    </section>
  )
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty" data-testid="empty-state">
      <p className="empty__title">{title}</p>
      {children && <div className="empty__body">{children}</div>}
    </div>
  )
}
