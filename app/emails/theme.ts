/**
 * The site's colours (app/app.css) for e-mail, where stylesheets and CSS variables do not
 * reach: every style is inline. tests/integration/emails.test.ts checks they match app.css.
 */
export const emailColors = {
	brand50: '#eef6f3',
	brand100: '#d5eae2',
	brand700: '#1b5e46',
	brand900: '#0f3527',
	ink: '#13212b',
	muted: '#475569',
	page: '#f8fafc',
	border: '#e2e8f0',
	white: '#ffffff',
} as const

export const emailFont = "-apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
