//go:build windows

package subprocess

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// jobProcessIDList is JOBOBJECT_BASIC_PROCESS_ID_LIST with room for 64
// processes.
type jobProcessIDList struct {
	NumberOfAssignedProcesses uint32
	NumberOfProcessIdsInList  uint32
	ProcessIDList             [64]uintptr
}

// treeMembers lists the processes in the bot's job (the bot alone once the
// job is closed, if it still runs).
func treeMembers(t *testing.T, b *Bot) []int {
	t.Helper()
	b.tree.mu.Lock()
	job := b.tree.job
	if job != 0 {
		var list jobProcessIDList
		err := windows.QueryInformationJobObject(job, windows.JobObjectBasicProcessIdList,
			uintptr(unsafe.Pointer(&list)), uint32(unsafe.Sizeof(list)), nil)
		b.tree.mu.Unlock()
		if err != nil && err != windows.ERROR_MORE_DATA {
			t.Fatalf("QueryInformationJobObject: %v", err)
		}
		var pids []int
		for _, pid := range list.ProcessIDList[:min(int(list.NumberOfProcessIdsInList), len(list.ProcessIDList))] {
			pids = append(pids, int(pid))
		}
		return pids
	}
	b.tree.mu.Unlock()
	if running(b.cmd.Process.Pid) {
		return []int{b.cmd.Process.Pid}
	}
	return nil
}

// running reports whether process pid has not exited.
func running(pid int) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, 0)
	return err == nil && ev != windows.WAIT_OBJECT_0
}

// assertTreeGone asserts that the bot's job was terminated and closed (so
// the system ended every process in it) and that the bot has exited.
func assertTreeGone(t *testing.T, b *Bot) {
	t.Helper()
	b.tree.mu.Lock()
	job := b.tree.job
	b.tree.mu.Unlock()
	if job != 0 {
		t.Errorf("the bot's job is still open")
	}
	if running(b.cmd.Process.Pid) {
		t.Errorf("bot process %d still runs", b.cmd.Process.Pid)
	}
}
