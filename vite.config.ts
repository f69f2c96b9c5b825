import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vitest/config'

const isVitest = Boolean(process.env.VITEST)

export default defineConfig({
	plugins: isVitest ? [] : [tailwindcss(), reactRouter()],
	build: { target: 'es2022' },
	test: {
		include: ['app/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts'],
		globalSetup: ['tests/support/global-setup.ts'],
		setupFiles: ['tests/support/setup.ts'],
		testTimeout: 30_000,
		hookTimeout: 60_000,
		pool: 'forks',
	},
})
