import { Fragment } from 'react'
import { postParts } from '#app/models/community/discussions.ts'

/**
 * A post as its author wrote it: line breaks kept, web addresses made links, everything else
 * plain React text, so nothing a member writes becomes HTML.
 */
export function PostText({ body }: { body: string }) {
	return (
		<p className="break-words text-slate-800">
			{postParts(body).map((part, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never move
				<Fragment key={index}>
					{part.kind === 'break' ? (
						<br />
					) : part.kind === 'link' ? (
						<a href={part.href} rel="nofollow ugc noopener noreferrer" className="font-medium text-brand-700 underline">
							{part.text}
						</a>
					) : (
						part.text
					)}
				</Fragment>
			))}
		</p>
	)
}
