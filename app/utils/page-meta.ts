import type { MetaDescriptor } from 'react-router'

export const SITE_NAME = 'Real Estate Mentorship'

/** Title and description tags for a marketing page, in the same shape everywhere. */
export function pageMeta(title: string, description: string): MetaDescriptor[] {
	const fullTitle = title === SITE_NAME ? title : `${title} | ${SITE_NAME}`
	return [
		{ title: fullTitle },
		{ name: 'description', content: description },
		{ property: 'og:title', content: fullTitle },
		{ property: 'og:description', content: description },
	]
}

/** The title tag of an app page: the page's own title, then the site's name. */
export function pageTitle(title: string): MetaDescriptor[] {
	return [{ title: `${title} | ${SITE_NAME}` }]
}
