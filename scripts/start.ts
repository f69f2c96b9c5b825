/**
 * `npm start`: the one command for a fresh clone. Builds when needed, migrates and seeds
 * the demo data on an empty database, then runs the production server on the embedded
 * defaults and prints the URL and the demo logins once it answers.
 * `--rebuild` forces a fresh build.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { initStorage } from '#app/services/storage/index.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, hasDemoAccounts, seedDemoData } from '#db/seed/demo.ts'
import { withMigratedDatabase } from './lib/database-server.ts'
import { exitWithError } from './lib/processes.ts'

const BUILD_ENTRY = path.resolve('build/server/index.js')
/** What the server build is made from; a newer file in any of them means the build is stale. */
const BUILD_SOURCES = ['app', 'public', 'vite.config.ts', 'react-router.config.ts', 'package-lock.json']

process.env.NODE_ENV ??= 'production'
process.env.ALLOW_EMBEDDED_DEFAULTS ??= 'true'

if (process.argv.includes('--rebuild') || isBuildStale()) {
	console.log('Building the app…')
	const code = await run(process.execPath, [path.resolve('node_modules/.bin/react-router'), 'build'])
	if (code !== 0) process.exit(code)
}

const env = getEnv()
// Seeding joins the server's embedded database if one already runs here; the server started
// next then refuses to start a second time on it, naming the first.
const showDemoLogins = await withMigratedDatabase(env, async (handle) => {
	const { seeded } = await seedDemoData(handle.db, await initStorage(env))
	if (seeded) console.log('Seeded the demo data.')
	return hasDemoAccounts(handle.db)
}).catch(exitWithError)

const server = spawn(process.execPath, [path.resolve('scripts/server.ts')], { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => server.kill(signal))
}
server.on('exit', (code) => process.exit(code ?? 1))

if (await waitUntilHealthy(`http://${probeHost(env.HOST)}:${env.PORT}/healthz`)) printBanner()

function printBanner() {
	const lines = [`The app is running at ${env.APP_URL}`]
	if (showDemoLogins) {
		const { admin, instructor, sam } = DEMO_ACCOUNTS
		lines.push(
			'',
			`Demo logins (password: ${DEMO_PASSWORD})`,
			`  admin       ${admin.email}`,
			`  instructor  ${instructor.email}`,
			`  student     ${sam.email}`,
		)
	}
	lines.push('', 'Press Ctrl+C to stop.')
	const rule = '─'.repeat(Math.max(...lines.map((line) => line.length)) + 4)
	console.log(`\n${rule}\n${lines.map((line) => (line ? `  ${line}` : '')).join('\n')}\n${rule}\n`)
}

function isBuildStale() {
	const built = modifiedAt(BUILD_ENTRY)
	return built === undefined || BUILD_SOURCES.some((source) => newestModification(path.resolve(source)) > built)
}

function modifiedAt(file: string) {
	try {
		return fs.statSync(file).mtimeMs
	} catch {
		return undefined
	}
}

function newestModification(target: string): number {
	const stats = fs.statSync(target, { throwIfNoEntry: false })
	if (!stats) return 0
	if (!stats.isDirectory()) return stats.mtimeMs
	return fs
		.readdirSync(target, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.reduce((newest, entry) => Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs), stats.mtimeMs)
}

function run(command: string, args: string[]) {
	return new Promise<number>((resolve) => {
		const child = spawn(command, args, { stdio: 'inherit' })
		child.on('exit', (code) => resolve(code ?? 1))
	})
}

/** The server listens on all interfaces by default; probe it through loopback then. */
function probeHost(host: string) {
	if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1'
	return host.includes(':') ? `[${host}]` : host
}

async function waitUntilHealthy(url: string) {
	const deadline = Date.now() + 120_000
	while (Date.now() < deadline && server.exitCode === null) {
		const ok = await fetch(url).then(
			(response) => response.ok,
			() => false,
		)
		if (ok) return true
		await new Promise((resolve) => setTimeout(resolve, 250))
	}
	return false
}
