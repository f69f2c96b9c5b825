import { index, layout, route, type RouteConfig } from '@react-router/dev/routes'

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
		route('*', 'routes/public/not-found.tsx'),
	]),
	route('logout', 'routes/auth/logout.ts'),
	route('healthz', 'routes/resources/healthz.ts'),
	route('dev/mailbox', 'routes/resources/mailbox.tsx'),
] satisfies RouteConfig
