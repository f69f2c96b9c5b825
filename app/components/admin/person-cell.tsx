import { EmailText } from '#app/components/ui/email-text.tsx'

/** The first cell of a row about a person: their name, and their e-mail address under it. */
export function PersonCell({ name, email }: { name: string; email: string }) {
	return (
		<td className="px-4 py-3">
			<p className="font-medium text-ink">{name}</p>
			<EmailText email={email} className="block text-slate-600" />
		</td>
	)
}
