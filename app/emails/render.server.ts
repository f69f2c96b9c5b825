import { render, toPlainText } from '@react-email/render'
import type { ReactElement } from 'react'

export type RenderedEmail = { html: string; text: string }

/** A template as the two parts of a multipart/alternative mail: HTML, and plain text derived from it. */
export async function renderEmail(element: ReactElement): Promise<RenderedEmail> {
	const html = await render(element)
	return { html, text: toPlainText(html) }
}
