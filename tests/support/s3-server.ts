import { spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

export type TestS3Server = {
	endpoint: string
	bucket: string
	accessKeyId: string
	secretAccessKey: string
	stop: () => Promise<void>
}

const thisFile = fileURLToPath(import.meta.url)

/**
 * A real S3-protocol server (s3rver) on a free loopback port, storing into a temporary
 * directory. It runs in a child process because s3rver encrypts ListObjectsV2 continuation
 * tokens with DES, which Node's OpenSSL 3 only offers with --openssl-legacy-provider (and
 * because s3rver's logger installs process-wide exception handlers).
 */
export async function startS3Server({ bucket = 'test-bucket' }: { bucket?: string } = {}): Promise<TestS3Server> {
	const directory = await fs.mkdtemp(path.join(os.tmpdir(), 's3rver-'))
	const child = spawn(process.execPath, ['--openssl-legacy-provider', '--no-warnings', thisFile, directory, bucket], {
		stdio: ['pipe', 'pipe', 'pipe'],
	})
	let stderr = ''
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
	const port = await new Promise<number>((resolve, reject) => {
		createInterface({ input: child.stdout }).once('line', (line) => resolve(Number(line)))
		void exited.then(() => reject(new Error(`s3rver exited before listening:\n${stderr}`)))
	})
	return {
		endpoint: `http://127.0.0.1:${port}`,
		bucket,
		accessKeyId: 'S3RVER',
		secretAccessKey: 'S3RVER',
		stop: async () => {
			child.kill('SIGTERM')
			await exited
			await fs.rm(directory, { recursive: true, force: true })
		},
	}
}

/** The part of s3rver's API used here (the package ships no types). */
type S3rverConstructor = new (options: {
	address: string
	port: number
	directory: string
	silent: boolean
	configureBuckets: Array<{ name: string }>
}) => { run(): Promise<AddressInfo> }

/** Child process: serve until told to stop, or until the parent goes away (stdin closes). */
async function serve(directory: string, bucket: string) {
	const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor
	const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] })
	const { port } = await server.run()
	process.stdout.write(`${port}\n`)
	process.stdin.on('end', () => process.exit(0)).resume()
	process.on('SIGTERM', () => process.exit(0))
}

if (process.argv[1] === thisFile) {
	const [directory, bucket] = process.argv.slice(2)
	await serve(directory!, bucket!)
}
