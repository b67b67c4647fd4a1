/**
 * A real S3 protocol server for the `s3` storage tests (catalogue FT13): npm `s3rver` as a
 * child process on 127.0.0.1, so that a test can kill it (an outage), freeze it (SIGSTOP: a
 * service that accepts connections but never answers) and start it again on the same port and
 * directory. Plus an S3 client of the test's own to look into the bucket.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { S3Client, ListObjectsV2Command, GetObjectCommand } from '@aws-sdk/client-s3'
import app from '@adonisjs/core/services/app'
import { filesSetup } from '#tests/helpers/files'
import { freePort, startServerProcess } from '#tests/helpers/server_process'

// The SDK's notice that its 2027 releases need Node 22 (here and in the server processes).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true'

export const BUCKET = 'modelgate-test'
/** s3rver's built-in account. */
const KEY = 'S3RVER'

export class S3rver {
  child: ChildProcess | null = null
  readonly client: S3Client

  private constructor(
    readonly port: number,
    readonly directory: string
  ) {
    this.client = new S3Client({
      region: 'us-east-1',
      endpoint: this.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: KEY, secretAccessKey: KEY },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
  }

  static async create() {
    const s3 = new S3rver(await freePort(), await mkdtemp(join(tmpdir(), 'mg-s3rver-')))
    await s3.start()
    return s3
  }

  get endpoint() {
    return `http://127.0.0.1:${this.port}`
  }

  /** The server variables of a Modelgate process whose default storage is this bucket. */
  serverEnv(): Record<string, string> {
    return {
      MODELGATE_S3_BUCKET: BUCKET,
      MODELGATE_S3_ENDPOINT: this.endpoint,
      MODELGATE_S3_FORCE_PATH_STYLE: 'true',
      MODELGATE_S3_ACCESS_KEY_ID: KEY,
      MODELGATE_S3_SECRET_ACCESS_KEY: KEY,
      SVC_CORE_DEFAULT_FILE_STORAGE: 's3',
    }
  }

  /** Starts s3rver (again: same port, same directory, the bucket and its objects kept). */
  async start() {
    const cli = app.makePath('node_modules', 's3rver', 'bin', 's3rver.js')
    const args = ['-d', this.directory, '-a', '127.0.0.1', '-p', String(this.port), '-s']
    const child = spawn(process.execPath, [cli, ...args, '--configure-bucket', BUCKET], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`s3rver did not start: ${output}`)), 20_000)
      child.stdout!.on('data', (chunk) => {
        output += chunk
        if (output.includes('S3rver listening')) {
          clearTimeout(timer)
          resolve()
        }
      })
      child.stderr!.on('data', (chunk) => (output += chunk))
      child.once('exit', (code) => reject(new Error(`s3rver exited (${code}): ${output}`)))
    })
    this.child = child
  }

  /** An outage: the process dies at once (SIGKILL), its connections are reset. */
  async kill() {
    const child = this.child
    if (!child) return
    this.child = null
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      await exited
    }
  }

  /** A hang: the port still accepts connections (kernel backlog) but nothing answers. */
  freeze() {
    this.child?.kill('SIGSTOP')
  }

  thaw() {
    this.child?.kill('SIGCONT')
  }

  /** Every object key in the bucket, sorted. */
  async keys(): Promise<string[]> {
    const out: string[] = []
    let token: string | undefined
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: BUCKET, ContinuationToken: token })
      )
      out.push(...(page.Contents ?? []).map((o) => o.Key!))
      token = page.NextContinuationToken
    } while (token)
    return out.sort()
  }

  async bytes(key: string): Promise<Buffer> {
    const { Body } = await this.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
    return Buffer.from(await Body!.transformToByteArray())
  }
}

/** The storage key of an `s3://` fileRef. */
export const keyOf = (fileRef: string) => fileRef.replace(/^s3:\/\/|\?.*$/g, '')

export interface S3Setup {
  s3: S3rver
  server: { child: ChildProcess; port: number }
  /** A full-access token of the demo application (the test database, set up once). */
  token: string
}

let shared: Promise<S3Setup> | undefined

/**
 * s3rver and one server process on it, shared by the files_s3* test files (a server process
 * takes ~20 s to compile and start on the 2-core machine); both are stopped when the test run
 * exits. The server's S3 client is tight (2.5 s timeouts, 2 attempts, at most 4 connections),
 * so that a missing timeout or a leaked connection shows as a hang. Each call makes sure
 * s3rver runs (an outage test may have stopped it).
 */
export async function s3ServerSetup(): Promise<S3Setup> {
  shared ??= (async () => {
    const token = await filesSetup()
    const s3 = await S3rver.create()
    const server = await startServerProcess({
      ...s3.serverEnv(),
      SVC_REST_MAX_UPLOAD_SIZE: '12MB',
      MODELGATE_S3_TIMEOUT_MS: '2500',
      // Also the longest wait for a free connection: a burst queues 200 requests on 4.
      MODELGATE_S3_CONNECT_TIMEOUT_MS: '10000',
      MODELGATE_S3_MAX_ATTEMPTS: '2',
      MODELGATE_S3_MAX_SOCKETS: '4',
    })
    if (process.env.S3_TEST_LOG) server.child.stdout!.on('data', (d) => process.stderr.write(d))
    // The server process stops with the test process (server_process.ts); s3rver and its files:
    process.once('exit', () => {
      s3.child?.kill('SIGKILL')
      rmSync(s3.directory, { recursive: true, force: true })
    })
    return { s3, server, token }
  })()
  const setup = await shared
  setup.s3.thaw()
  if (!setup.s3.child) await setup.s3.start()
  return setup
}
