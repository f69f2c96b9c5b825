import type { MetaDescriptor } from 'react-router'
import { SITE_NAME } from '#app/utils/page-meta.ts'

/** The title and description tags of a sign-in page. */
export function authPageMeta(title: string, description: string): MetaDescriptor[] {
	return [{ title: `${title} | ${SITE_NAME}` }, { name: 'description', content: description }]
}
