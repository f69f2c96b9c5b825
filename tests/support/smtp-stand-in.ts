/**
 * The local SMTP server (smtp-server.ts) for a test file or a describe block: started before its
 * tests and stopped after them. Vitest only; smtp-server.ts itself stays free of a test runner.
 */
import { afterAll, beforeAll } from 'vitest'
import { startSmtpServer, type TestSmtpServer } from './smtp-server.ts'
import { startedLater } from './started-later.ts'

export function useSmtpServer() {
	let server: TestSmtpServer | undefined
	beforeAll(async () => {
		server = await startSmtpServer()
	})
	afterAll(async () => server?.stop())
	return startedLater('the SMTP server', () => server)
}
