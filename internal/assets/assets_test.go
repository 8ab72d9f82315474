package assets

import (
	"bytes"
	"testing"
)

func TestEChartsVendored(t *testing.T) {
	if v := EChartsVersion(); v == "" || v[0] != '5' {
		t.Fatalf("version %q, want 5.x (the go-echarts v2 target)", v)
	}
	if _, ok := EChartsSHA256(); !ok {
		t.Fatal("echarts.min.js does not match its recorded SHA-256")
	}
	if !bytes.Contains(ECharts(), []byte("echarts")) || len(ECharts()) < 500000 {
		t.Fatal("echarts.min.js looks wrong")
	}
	lic, err := FS.ReadFile("echarts/LICENSE")
	if err != nil || !bytes.Contains(lic, []byte("Apache License")) {
		t.Fatalf("licence missing: %v", err)
	}
}
