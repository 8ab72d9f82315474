package cfr

// FixturePath is fixturePath for the external test package.
var FixturePath = fixturePath
