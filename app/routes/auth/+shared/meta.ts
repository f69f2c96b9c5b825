import type { MetaDescriptor } from 'react-router'
import { pageTitle } from '#app/utils/page-meta.ts'

/** The title and description tags of a sign-in page. */
export function authPageMeta(title: string, description: string): MetaDescriptor[] {
	return [...pageTitle(title), { name: 'description', content: description }]
}
