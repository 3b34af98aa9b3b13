/** The engines never read the wall clock themselves: tests and front-ends pass one in. */
export type Clock = () => Date;
