import app from '@adonisjs/core/services/app'
import { Engine } from '../engine.js'

let engine: Engine

await app.booted(async () => {
  engine = await app.container.make(Engine)
})

export { engine as default }
