import { index, layout, prefix, route, type RouteConfig } from '@react-router/dev/routes'

export default [
	layout('routes/public/layout.tsx', [
		index('routes/public/home.tsx'),
		route('about', 'routes/public/about.tsx'),
		route('contact', 'routes/public/contact.tsx'),
		route('faq', 'routes/public/faq.tsx'),
		route('terms', 'routes/public/terms.tsx'),
		route('privacy', 'routes/public/privacy.tsx'),
		route('community', 'routes/public/community.tsx'),
		route('courses', 'routes/public/courses.tsx'),
		route('courses/:id', 'routes/public/course-detail.tsx'),
		route('login', 'routes/auth/login.tsx'),
		route('forgot-password', 'routes/auth/forgot-password.tsx'),
		route('reset-password', 'routes/auth/reset-password.tsx'),
		route('confirm-email', 'routes/auth/confirm-email.tsx'),
		route('resend-confirmation', 'routes/auth/resend-confirmation.tsx'),
		route('*', 'routes/public/not-found.tsx'),
	]),
	route('dashboard', 'routes/dashboard/layout.tsx', [
		index('routes/dashboard/index.tsx'),
		route('settings', 'routes/dashboard/settings.tsx'),
		...prefix('admin', [layout('routes/admin/layout.tsx', [])]),
	]),
	route('logout', 'routes/auth/logout.ts'),
	route('healthz', 'routes/resources/healthz.ts'),
	route('dev/mailbox', 'routes/resources/mailbox.tsx'),
] satisfies RouteConfig
