import { describeSchema, type Schema } from '../lib/reference'

/** An entity's component schema: attributes with type, constraints, required and read-only. */
export function SchemaTable({ name, schema }: { name: string; schema: Schema }) {
  const properties = (schema.properties ?? {}) as Record<string, Schema>
  const required = new Set((schema.required ?? []) as string[])
  return (
    <div className="table-wrap" data-testid={`schema-${name}`}>
      <table className="table">
        <caption>
          Schema <code>{name}</code>
        </caption>
        <thead>
          <tr>
            <th scope="col">Attribute</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Read-only</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(properties).map(([attribute, s]) => (
            <tr key={attribute}>
              <td>
                <code>{attribute}</code>
              </td>
              <td>{describeSchema(s)}</td>
              <td>{required.has(attribute) ? 'yes' : ''}</td>
              <td>{s.readOnly ? 'yes' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
