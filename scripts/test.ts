/**
 * The whole test suite, in the order that fails fastest: types, lint and
 * formatting (Biome), unit and integration tests (Vitest, real PostgreSQL and PGlite), the concurrency tests
 * repeated, then a production build driven end to end by Playwright with
 * JavaScript on and off. The database steps use TEST_POSTGRES_URL (the machine's
 * PostgreSQL by default) or, when nothing answers there, an embedded PostgreSQL server
 * started for the run.
 * Ends with one line 'N passed, N failed'.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { copyManifests, INSTALL_COMMAND, RUNTIME_DEPENDENCIES_ENV } from '../tests/support/runtime-dependencies.ts'
import { ensureTestPostgres } from '../tests/support/test-postgres-server.ts'

const bin = (name: string) => path.resolve('node_modules/.bin', name)
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-reports-'))
const vitestReport = path.join(reportDir, 'vitest.json')
const playwrightReport = path.join(reportDir, 'playwright.json')
const only = process.argv.slice(2)

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
	console.log(`\n▶ ${label}`)
	const started = Date.now()
	const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
	console.log(`◀ ${label}: ${result.status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(0)} s)`)
	return result.status === 0
}

const wanted = (step: string) => only.length === 0 || only.includes(step)
const failures: string[] = []

const database = ['unit', 'stress', 'e2e'].some(wanted) ? await ensureTestPostgres() : undefined
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, async () => {
		await database?.stop()
		process.exit(1)
	})
}

/**
 * Debian packages the tests run for real, installed when missing (and run as root): LibreOffice
 * for the office previews (docs/decisions/028), Chromium for the browser tests (Playwright's own
 * download cannot be reached here), lynx for the text-browser check
 * (tests/e2e/text-browsers.spec.ts). One `apt-get update` and the installs run in the background
 * from the start, while the types and lint are checked; a step that needs a package waits for them.
 */
const LIBREOFFICE_PACKAGES = [
	'libreoffice-core-nogui',
	'libreoffice-writer-nogui',
	'libreoffice-calc-nogui',
	'libreoffice-impress-nogui',
	'fonts-dejavu-core',
]
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const needsLibreOffice =
	['unit', 'e2e'].some(wanted) && !process.env.LIBREOFFICE_PATH && spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status !== 0
const needsChromium = wanted('e2e') && !fs.existsSync(chromiumPath)
const needsLynx = wanted('e2e') && spawnSync(process.env.LYNX_PATH ?? 'lynx', ['-version'], { stdio: 'ignore' }).status !== 0
const MISSING_HELP = {
	libreoffice: `LibreOffice not found: install it (apt-get install -y ${LIBREOFFICE_PACKAGES.slice(0, 2).join(' ')}) or set LIBREOFFICE_PATH.`,
	chromium: `Chromium not found at ${chromiumPath}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`,
	lynx: 'lynx not found: install it (apt-get install -y lynx) or set LYNX_PATH.',
}

/**
 * Runs a command beside the steps (which block this process while they run): its output goes to a
 * file, printed only if it fails.
 */
function runInBackground(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string) {
	const started = Date.now()
	const log = path.join(reportDir, `${label.replaceAll(/\W+/g, '-')}.log`)
	const output = fs.openSync(log, 'w')
	return new Promise<boolean>((resolve) => {
		const child = spawn(command, args, { stdio: ['ignore', output, output], env: { ...process.env, ...env }, cwd })
		let finished = false
		const done = (ok: boolean) => {
			if (finished) return
			finished = true
			fs.closeSync(output)
			// Seen when a step in front ends, so "within": the time it took is at most this.
			console.log(`\n◀ ${label} (in the background): ${ok ? 'ok' : 'FAILED'} (within ${((Date.now() - started) / 1000).toFixed(0)} s)`)
			if (!ok) console.log(fs.readFileSync(log, 'utf8'))
			resolve(ok)
		}
		child.on('error', (error) => {
			fs.appendFileSync(log, String(error))
			done(false)
		})
		child.on('exit', (status) => done(status === 0))
	})
}

function installMissingPackages() {
	const missing = { libreoffice: needsLibreOffice, chromium: needsChromium, lynx: needsLynx }
	const none = Promise.resolve(true)
	if (!Object.values(missing).some(Boolean)) return { libreoffice: none, chromium: none, lynx: none }
	if (process.getuid?.() !== 0) {
		const report = (name: keyof typeof missing) => {
			if (missing[name]) console.error(MISSING_HELP[name])
			return Promise.resolve(!missing[name])
		}
		return { libreoffice: report('libreoffice'), chromium: report('chromium'), lynx: report('lynx') }
	}
	const env = { DEBIAN_FRONTEND: 'noninteractive' }
	const apt = (label: string, args: string[]) => () => runInBackground(label, 'apt-get', args, env)
	console.log('\n▶ apt-get update and install (in the background)')
	const updated = apt('apt-get update', ['update', '-qq'])()
	// One install after another (dpkg takes a lock).
	let dpkg: Promise<unknown> = updated
	const install = (needed: boolean, label: string, args: string[]) => {
		if (!needed) return Promise.resolve(true)
		const installed = dpkg.then(async () => (await updated) && apt(label, ['install', '-y', '-qq', ...args])())
		dpkg = installed
		return installed
	}
	const libreoffice = install(needsLibreOffice, 'install LibreOffice', ['--no-install-recommends', ...LIBREOFFICE_PACKAGES])
	const lynx = install(needsLynx, 'install lynx', ['--no-install-recommends', 'lynx'])
	// Chromium with the packages it recommends, as before.
	const chromium = install(needsChromium, 'install chromium', ['chromium'])
	return { libreoffice, chromium, lynx }
}
const { libreoffice: libreOfficeReady, chromium: chromiumReady, lynx: lynxReady } = installMissingPackages()

/**
 * The container test's production dependencies (tests/support/runtime-dependencies.ts), installed
 * from the start beside the other steps: mostly disk writes, which held a browser-test worker for
 * over a minute.
 */
function installRuntimeDependencies() {
	const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-dependencies-'))
	copyManifests(directory)
	const { command, args } = INSTALL_COMMAND
	const installed = runInBackground('npm ci --omit=dev for the container test', command, args, {}, directory)
	return { directory, installed }
}
const runtimeDependencies = wanted('e2e') ? installRuntimeDependencies() : undefined

if (wanted('typecheck')) {
	if (!run('typecheck', bin('react-router'), ['typegen']) || !run('tsc', bin('tsc'), ['--noEmit'])) failures.push('typecheck')
}
if (wanted('lint')) {
	if (!run('lint and format (biome ci)', bin('biome'), ['ci', '.'])) failures.push('lint')
}
if (['unit', 'e2e'].some(wanted) && !(await libreOfficeReady)) failures.push('libreoffice')

// The concurrency tests, repeated (npm run test:stress). In a whole run their extra runs are made
// inside the Vitest step, as many as the two steps made between them before (1 + 20 and 5 + 20),
// so their files are set up once and share the workers with the other files instead of running
// again one after another at the end.
const STRESS_TESTS = [
	'tests/integration/security-seats.test.ts',
	'tests/integration/promotion-codes.test.ts',
	'tests/integration/double-submits.test.ts',
]
const STRESS_REPEATS = { SECURITY_REPEATS: '20', PROMOTION_REPEATS: '20' }
const stressInVitest = wanted('unit') && wanted('stress')
// The production build for the browser tests, made while Vitest runs (no unit or integration test
// reads it): its output is shown only if it fails.
const built = wanted('e2e') ? runInBackground('build', bin('react-router'), ['build']) : undefined
if (wanted('unit')) {
	const repeats = stressInVitest ? { SECURITY_REPEATS: '21', PROMOTION_REPEATS: '25' } : {}
	if (!run('vitest', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`], repeats)) {
		failures.push('vitest')
	}
}
if (wanted('stress') && !stressInVitest) {
	if (!run('stress', bin('vitest'), ['run', ...STRESS_TESTS], STRESS_REPEATS)) failures.push('stress')
}
if (built) {
	if (!(await built)) failures.push('build')
	else if (!(await chromiumReady)) failures.push('chromium')
	else if (!(await lynxReady)) failures.push('lynx')
	else if (
		!run('playwright', bin('playwright'), ['test', '-c', 'tests/playwright.config.ts', '--reporter=list,json'], {
			PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
			// Left out when the install failed: the container test installs for itself, and says why it cannot.
			...((await runtimeDependencies?.installed) ? { [RUNTIME_DEPENDENCIES_ENV]: runtimeDependencies?.directory } : {}),
		})
	) {
		failures.push('playwright')
	}
}

type Counts = { passed: number; failed: number; skipped: number }
const counts: Counts = { passed: 0, failed: 0, skipped: 0 }

if (fs.existsSync(vitestReport)) {
	const report = JSON.parse(fs.readFileSync(vitestReport, 'utf8'))
	counts.passed += report.numPassedTests ?? 0
	counts.failed += report.numFailedTests ?? 0
	counts.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
}
if (fs.existsSync(playwrightReport)) {
	const stats = JSON.parse(fs.readFileSync(playwrightReport, 'utf8')).stats ?? {}
	counts.passed += (stats.expected ?? 0) + (stats.flaky ?? 0)
	counts.failed += stats.unexpected ?? 0
	counts.skipped += stats.skipped ?? 0
}
if (runtimeDependencies) {
	await runtimeDependencies.installed
	fs.rmSync(runtimeDependencies.directory, { recursive: true, force: true })
}
fs.rmSync(reportDir, { recursive: true, force: true })
await database?.stop()

if (failures.length > 0) console.log(`\nFailed steps: ${failures.join(', ')}`)
if (failures.length > 0 && counts.failed === 0) counts.failed = 1
console.log(`\n${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`)
process.exit(failures.length > 0 ? 1 : 0)
