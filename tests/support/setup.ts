import { afterEach, vi } from 'vitest'

process.env.NODE_ENV = 'test'
process.env.SESSION_SECRET ??= 'test-session-secret'
process.env.LOG_LEVEL ??= 'silent'

afterEach(() => {
	vi.restoreAllMocks()
})
