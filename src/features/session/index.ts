/** The multi-session routine: Initialize, Resume and the Features view over features.json. */
export { registerMultiSession as register, type MultiSessionApi } from './register';
