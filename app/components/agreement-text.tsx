import { cn } from '#app/utils/misc.ts'

/**
 * The program agreement as the server rendered it from the school's template (Markdown without
 * HTML, docs/decisions/043): a scrollable region, reachable by keyboard.
 */
export function AgreementText({ html, label = 'Agreement terms', className }: { html: string; label?: string; className?: string }) {
	return (
		<section
			aria-label={label}
			tabIndex={0}
			className={cn(
				'max-h-80 space-y-3 overflow-y-auto rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-800 focus:ring-2 focus:ring-brand-200 focus:outline-none',
				'[&_h1]:font-semibold [&_h2]:font-semibold [&_h3]:font-semibold [&_li]:mt-2 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-5 [&_ul]:list-disc [&_ul]:pl-5 [&_a]:text-brand-700 [&_a]:underline',
				className,
			)}
			// The server rendered it with markdown-it, which prints any HTML in the template as text.
			// biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown rendered on the server with HTML off
			dangerouslySetInnerHTML={{ __html: html }}
		/>
	)
}
