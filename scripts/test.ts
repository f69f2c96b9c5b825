/**
 * The whole test suite, in the order that fails fastest: types, lint and
 * formatting (Biome), unit and integration tests (Vitest, real PostgreSQL and PGlite), the concurrency tests
 * repeated, then a production build driven end to end by Playwright with
 * JavaScript on and off. The database steps use TEST_POSTGRES_URL (the machine's
 * PostgreSQL by default) or, when nothing answers there, an embedded PostgreSQL server
 * started for the run.
 * Ends with one line 'N passed, N failed'.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
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

if (wanted('typecheck')) {
	if (!run('typecheck', bin('react-router'), ['typegen']) || !run('tsc', bin('tsc'), ['--noEmit'])) failures.push('typecheck')
}
if (wanted('lint')) {
	if (!run('lint and format (biome ci)', bin('biome'), ['ci', '.'])) failures.push('lint')
}
/**
 * Office previews are made with LibreOffice (docs/decisions/028), which the tests run for
 * real: Debian's headless packages, installed like Chromium when missing and run as root.
 */
function ensureLibreOffice() {
	const found = spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status === 0
	if (found || process.env.LIBREOFFICE_PATH) return true
	if (process.getuid?.() !== 0) {
		console.error(
			'LibreOffice not found: install it (apt-get install -y libreoffice-core-nogui libreoffice-writer-nogui) or set LIBREOFFICE_PATH.',
		)
		return false
	}
	const env = { DEBIAN_FRONTEND: 'noninteractive' }
	return (
		run('apt-get update', 'apt-get', ['update', '-qq'], env) &&
		run('install LibreOffice', 'apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...LIBREOFFICE_PACKAGES], env)
	)
}
const LIBREOFFICE_PACKAGES = [
	'libreoffice-core-nogui',
	'libreoffice-writer-nogui',
	'libreoffice-calc-nogui',
	'libreoffice-impress-nogui',
	'fonts-dejavu-core',
]

if (['unit', 'e2e'].some(wanted) && !ensureLibreOffice()) failures.push('libreoffice')

if (wanted('unit')) {
	if (!run('vitest', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`])) {
		failures.push('vitest')
	}
}
/** The browser tests use Debian's Chromium (Playwright's own download cannot be reached here). */
function ensureChromium() {
	const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
	if (fs.existsSync(chromium)) return true
	if (process.getuid?.() !== 0) {
		console.error(`Chromium not found at ${chromium}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`)
		return false
	}
	const env = { DEBIAN_FRONTEND: 'noninteractive' }
	return (
		run('apt-get update', 'apt-get', ['update', '-qq'], env) &&
		run('install chromium', 'apt-get', ['install', '-y', '-qq', 'chromium'], env)
	)
}

/**
 * The end-to-end tests read pages as a text browser does with lynx (tests/e2e/text-browsers.spec.ts):
 * Debian's package, installed like Chromium when missing.
 */
function ensureLynx() {
	const found = spawnSync(process.env.LYNX_PATH ?? 'lynx', ['-version'], { stdio: 'ignore' }).status === 0
	if (found) return true
	if (process.getuid?.() !== 0) {
		console.error('lynx not found: install it (apt-get install -y lynx) or set LYNX_PATH.')
		return false
	}
	const env = { DEBIAN_FRONTEND: 'noninteractive' }
	return (
		run('apt-get update', 'apt-get', ['update', '-qq'], env) &&
		run('install lynx', 'apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'lynx'], env)
	)
}

// The concurrency tests again, 20 times over (npm run test:stress): cheap enough to run on every CI run.
if (wanted('stress')) {
	const stressTests = [
		'tests/integration/security-seats.test.ts',
		'tests/integration/promotion-codes.test.ts',
		'tests/integration/double-submits.test.ts',
	]
	if (!run('stress', bin('vitest'), ['run', ...stressTests], { SECURITY_REPEATS: '20', PROMOTION_REPEATS: '20' })) {
		failures.push('stress')
	}
}
if (wanted('e2e')) {
	const built = run('build', bin('react-router'), ['build'])
	if (!built) failures.push('build')
	else if (!ensureChromium()) failures.push('chromium')
	else if (!ensureLynx()) failures.push('lynx')
	else if (
		!run('playwright', bin('playwright'), ['test', '-c', 'tests/playwright.config.ts', '--reporter=list,json'], {
			PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
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
fs.rmSync(reportDir, { recursive: true, force: true })
await database?.stop()

if (failures.length > 0) console.log(`\nFailed steps: ${failures.join(', ')}`)
if (failures.length > 0 && counts.failed === 0) counts.failed = 1
console.log(`\n${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`)
process.exit(failures.length > 0 ? 1 : 0)
