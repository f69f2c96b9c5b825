/**
 * A spam trap (docs/decisions/018): a text field that people never see or reach,
 * so only a bot fills it in. Kept off-screen rather than display:none, which
 * some bots skip; aria-hidden and tabIndex -1 keep it from keyboard and
 * screen-reader users. A browser without styles shows it, labelled.
 */
export const HONEYPOT_FIELD = 'website'

/**
 * The answer to a filled trap (docs/decisions/029): the form comes back refused with what was
 * typed, so a person whose browser showed the field can clear it, and nothing is stored.
 */
export const HONEYPOT_REFUSAL = 'Your form was not sent: the field “Leave this field empty” must stay empty. Clear it and send again.'

export function isHoneypotFilled(formData: FormData) {
	const value = formData.get(HONEYPOT_FIELD)
	return typeof value === 'string' && value.trim() !== ''
}
