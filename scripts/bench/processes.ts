/** The processes a bench run starts and stops: commands, the app's server, the floor app's, the bare node:http one. */
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { BUILD_DIR, CPU_PROFILE_DIR, FLOOR_APP_DIR, FLOOR_BUILD_DIR } from './options.ts'

/** Where the servers' heap probes (scripts/bench/heap-probe.ts) write; run.ts removes it at the end. */
export const HEAP_PROBE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-heap-'))
export const bin = (name: string) => path.resolve('node_modules/.bin', name)

/** Runs a command to its end and answers its stdout; its stderr goes through. */
export function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv = {}, cwd?: string) {
	return new Promise<string>((resolve, reject) => {
		const child = spawn(command, commandArgs, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
		let output = ''
		child.stdout.on('data', (chunk: Buffer) => (output += chunk))
		child.on('error', reject)
		child.on('exit', (code) =>
			code === 0 ? resolve(output) : reject(new Error(`${command} ${commandArgs.join(' ')} exited with ${code}`)),
		)
	})
}

async function freePort() {
	const server = http.createServer()
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const address = server.address()
	await new Promise((resolve) => server.close(resolve))
	return typeof address === 'object' && address ? address.port : 0
}

/** The production launcher (scripts/server.ts) on a target's database, carrying the heap probe. */
export async function startServer(target: { kind: string; env: NodeJS.ProcessEnv }) {
	const port = await freePort()
	const profile = CPU_PROFILE_DIR ? ` --cpu-prof --cpu-prof-dir=${path.resolve(CPU_PROFILE_DIR, target.kind)}` : ''
	const child = spawn(process.execPath, ['scripts/server.ts'], {
		env: {
			...process.env,
			...target.env,
			...(CPU_PROFILE_DIR ? { WEB_CONCURRENCY: '1' } : {}),
			PORT: String(port),
			BUILD_DIR,
			NODE_OPTIONS: `--expose-gc --import=${path.resolve('scripts/bench/heap-probe.ts')}${profile}`,
			HEAP_PROBE_DIR,
		},
		stdio: ['ignore', 'pipe', 'inherit'],
	})
	await new Promise<void>((resolve, reject) => {
		child.stdout!.on('data', (chunk: Buffer) => {
			if (chunk.toString().includes('Server listening')) resolve()
		})
		child.on('exit', (code) => reject(new Error(`server exited with ${code}`)))
	})
	return { child, origin: `http://127.0.0.1:${port}` }
}

/** The floor app (bench/floor-app) on the target's database, with as many processes as the app. */
export async function startFloorServer(databaseUrl: string, workers: number) {
	const port = await freePort()
	const child = spawn(process.execPath, [path.join(FLOOR_APP_DIR, 'server.ts')], {
		env: {
			...process.env,
			NODE_ENV: 'production',
			PORT: String(port),
			BUILD_DIR: FLOOR_BUILD_DIR,
			DATABASE_URL: databaseUrl,
			WEB_CONCURRENCY: String(workers),
		},
		stdio: ['ignore', 'pipe', 'inherit'],
	})
	await new Promise<void>((resolve, reject) => {
		child.stdout!.on('data', (chunk: Buffer) => {
			if (chunk.toString().includes('Server listening')) resolve()
		})
		child.on('exit', (code) => reject(new Error(`floor server exited with ${code}`)))
	})
	return { child, origin: `http://127.0.0.1:${port}` }
}

export async function stopServer(child: ChildProcess) {
	if (child.exitCode !== null) return
	const exited = new Promise((resolve) => child.once('exit', resolve))
	child.kill('SIGTERM')
	await exited
}

/** Serves the exact bytes and content type of a response from a bare node:http server, in a child process. */
export async function bareServer(body: Buffer, contentType: string) {
	const file = path.join(os.tmpdir(), `bench-bare-${process.pid}.html`)
	fs.writeFileSync(file, body)
	const source = `
		const http = require('node:http')
		const body = require('node:fs').readFileSync(${JSON.stringify(file)})
		const server = http.createServer((req, res) => { res.writeHead(200, { 'Content-Type': ${JSON.stringify(contentType)}, 'Content-Length': body.length }); res.end(body) })
		server.keepAliveTimeout = 65000
		server.listen(0, '127.0.0.1', () => console.log(server.address().port))`
	const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] })
	const port = await new Promise<number>((resolve) =>
		child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
	)
	return { child, url: `http://127.0.0.1:${port}/`, cleanup: () => fs.rmSync(file, { force: true }) }
}
