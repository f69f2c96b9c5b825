/** vnu-jar ships no declarations: its main export is the path of vnu.jar (a String object). */
declare module 'vnu-jar' {
	const vnuJar: string
	export default vnuJar
}
