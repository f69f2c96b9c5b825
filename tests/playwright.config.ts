import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'

/** Chosen once in the main process; workers inherit it through the environment. */
process.env.E2E_DATABASE_NAME ??= `app_e2e_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
process.env.E2E_PORT ??= String(3900 + Math.floor(Math.random() * 90))
process.env.E2E_SESSION_SECRET ??= 'e2e-session-secret'
/** Where the page fixture files each document the tests load, for the Nu Html Checker at the end. */
process.env.E2E_HTML_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-documents-'))

const port = Number(process.env.E2E_PORT)
const root = path.resolve(import.meta.dirname, '..')

export default defineConfig({
	testDir: './e2e',
	outputDir: process.env.E2E_OUTPUT_DIR ?? '../test-results',
	fullyParallel: true,
	forbidOnly: Boolean(process.env.CI),
	retries: 0,
	workers: 2,
	timeout: 60_000,
	expect: { timeout: 7_000 },
	reporter: process.env.CI ? [['list']] : [['list']],
	globalTeardown: './support/e2e-global-teardown.ts',
	use: {
		baseURL: `http://localhost:${port}`,
		// No trace is recorded: tracing every test to keep the failures' was a fifth of the run's CPU
		// (DOM snapshots at each action and evaluate). For a failing test's trace, run it again with
		// --trace=retain-on-failure; its screenshot and error context are kept all the same.
		trace: 'off',
		screenshot: 'only-on-failure',
		launchOptions: {
			executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				'--no-first-run',
			],
		},
	},
	projects: [
		{ name: 'js-enabled', use: { javaScriptEnabled: true } },
		// Behaviour that only exists with JavaScript (live updates, client-side checks) is tagged @js-only;
		// a reading of the markup as the server sends it (the same either way) is tagged @server-markup.
		{
			name: 'js-disabled',
			use: { javaScriptEnabled: false },
			grepInvert: /@js-only|@server-markup/,
			// Plain HTTP against private servers, no browser: one run proves it.
			testIgnore: [
				'**/security-http.spec.ts',
				'**/security-limits.spec.ts',
				'**/security-requests.spec.ts',
				'**/cluster.spec.ts',
				'**/embedded-postgres.spec.ts',
				'**/container.spec.ts',
				// Markup as the server sends it, read by lynx: the same whether scripts run or not.
				'**/text-browsers.spec.ts',
			],
		},
	],
	webServer: {
		command: `"${process.execPath}" tests/support/e2e-server.ts`,
		cwd: root,
		url: `http://localhost:${port}/healthz`,
		timeout: 120_000,
		reuseExistingServer: false,
		stdout: 'ignore',
		stderr: 'pipe',
	},
})
