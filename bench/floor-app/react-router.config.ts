import type { Config } from '@react-router/dev/config'

export default {
	ssr: true,
	appDirectory: 'app',
	buildDirectory: process.env.BUILD_DIR ?? 'build',
} satisfies Config
