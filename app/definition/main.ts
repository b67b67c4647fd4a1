/**
 * The application definition wing's door (app/definition/README.md): import, plan and export
 * of the whole definition or any part of it, for the CLI, the admin API and the demo import.
 * Every change goes through applyDefinition (one transaction, one version bump, one audit
 * entry); this instance's engine picks the change up before the call returns (other instances
 * through their change watcher).
 */
import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import YAML from 'yaml'
import type { Engine } from '#engine/engine'
import { readVersion } from '#changes/versions'
import type { Problem } from './section.js'
import { parseDocumentText } from './document.js'
import {
  applyDefinition,
  exportDefinition,
  type ApplyDefinitionOptions,
  type DefinitionResult,
} from './apply.js'

export type { ApplyDefinitionOptions, DefinitionResult } from './apply.js'
export type { Author, ElementChange } from './audit.js'
export { readAudit, recordAction, writeAudit } from './audit.js'
export { validateDocument, parseDocumentText, type DefinitionDocument } from './document.js'
export { SECTIONS } from './sections/index.js'
/** The import result (the CLI's name for it). */
export type ImportResult = DefinitionResult
export type ImportOptions = ApplyDefinitionOptions

export function formatOf(file: string): 'json' | 'yaml' {
  return ['.yaml', '.yml'].includes(extname(file).toLowerCase()) ? 'yaml' : 'json'
}

export function renderDocument(document: Record<string, unknown>, format: 'json' | 'yaml'): string {
  return format === 'yaml' ? YAML.stringify(document) : JSON.stringify(document, null, 2) + '\n'
}

function unreadable(format: string, error: unknown): DefinitionResult {
  const problems: Problem[] = [
    { path: '$', message: `not valid ${format.toUpperCase()}: ${(error as Error).message}` },
  ]
  return {
    status: 'invalid',
    changes: [],
    steps: [],
    problems,
    refusals: [],
    risks: [],
    version: 0,
    definitionVersion: 0,
  }
}

export class Definitions {
  constructor(private engine: Engine) {}

  async importDocument(raw: unknown, options: ApplyDefinitionOptions = {}) {
    const result = await applyDefinition(this.engine.db, raw, options)
    if (result.status === 'applied') await this.engine.refresh()
    return result
  }

  async importText(text: string, format: 'json' | 'yaml', options: ApplyDefinitionOptions = {}) {
    let raw: unknown
    try {
      raw = parseDocumentText(text, format)
    } catch (error) {
      return unreadable(format, error)
    }
    return this.importDocument(raw, options)
  }

  async importFile(file: string, options: ApplyDefinitionOptions = {}) {
    const text = await readFile(file, 'utf8')
    return this.importText(text, formatOf(file), { source: `app:import ${file}`, ...options })
  }

  exportDocument() {
    return exportDefinition(this.engine.db)
  }

  /**
   * Applies a document built from the current definition (an element edited in a copy, or a
   * section minus an element with `pruneSections`), pinned to the definition version it was read
   * at: a concurrent change is never overwritten or pruned away. With `expectedVersion` (If-Match)
   * that version must be the caller's (else 'stale'); without it, a change that lost the race is
   * built again, up to `attempts` times. `build` returns null to give up (it answered already).
   */
  async importFromCurrent(
    build: (current: Record<string, any>) => Promise<unknown> | unknown,
    options: ApplyDefinitionOptions = {},
    attempts = 3
  ): Promise<DefinitionResult | null> {
    const asked = options.expectedVersion
    for (let attempt = 1; ; attempt++) {
      const version = await this.version()
      const document = await build(await this.exportDocument())
      if (document === null) return null
      const expectedVersion = asked ?? version
      const result = await this.importDocument(document, { ...options, expectedVersion })
      if (result.status !== 'stale' || asked !== undefined || attempt >= attempts) return result
    }
  }

  /** The current definition version (the admin API's ETag). */
  version() {
    return readVersion(this.engine.db.connection(), 'definition')
  }
}

/** The definition service of an engine. */
export function definitions(engine: Engine): Definitions {
  return new Definitions(engine)
}
