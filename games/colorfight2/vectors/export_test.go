package vectors

// VectorDir is vectorDir for the external test package.
const VectorDir = vectorDir
