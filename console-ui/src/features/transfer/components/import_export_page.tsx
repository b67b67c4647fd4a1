import './transfer.css'
import { Page } from '../../../components/ui/page'
import { ExportPanel } from './export_panel'
import { ImportPanel } from './import_panel'

/** The application definition as a file: download it, or upload one and review its plan before applying it. */
export function ImportExportPage() {
  return (
    <Page
      title="Import/export"
      description="The application definition as a JSON or YAML file: back it up, move it between servers, or change it in bulk."
      testId="import-export-page"
    >
      <ExportPanel />
      <ImportPanel />
    </Page>
  )
}
